#flux: -S user.x="""

#flux: """
