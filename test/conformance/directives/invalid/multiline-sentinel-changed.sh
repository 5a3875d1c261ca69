#flux: -S user.x="""
# flux: a
#flux: """
