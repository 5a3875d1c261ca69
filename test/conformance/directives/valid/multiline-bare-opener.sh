#flux: """
#flux: -n1
#flux: """
