#flux: --job-name=a#b -n1
