#flux: -S user.x="""
foo
#flux: """
