#flux: -S user.x='''
#flux: it's "q"
#flux: """
#flux: '''
