#flux: -S user.x="""
#flux: a # not a comment
#flux: """
