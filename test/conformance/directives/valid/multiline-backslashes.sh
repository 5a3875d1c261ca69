#flux: -S user.x="""
#flux: a\\b c\d
#flux: """
