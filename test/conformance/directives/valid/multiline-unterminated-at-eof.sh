#flux: -n1
#flux: -S user.x="""
#flux: abc
