#flux: -S user.x="""
#flux: a """ b
#flux: """
