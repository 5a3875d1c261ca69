#flux: -n1 foo --job-name=x
