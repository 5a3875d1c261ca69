#flux: --job-name="""x
