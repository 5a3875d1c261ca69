#flux: hello -n1
