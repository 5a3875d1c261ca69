#flux: -S user.x='''a''' -S user.y='''b'''
