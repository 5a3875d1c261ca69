#flux: --job-name='''It's a "job"'''
