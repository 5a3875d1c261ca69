#flux: --job-name=foo\
