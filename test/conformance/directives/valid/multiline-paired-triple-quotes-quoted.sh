#flux: -S user.x="""
#flux: """é b"""
#flux: plain
#flux: """
