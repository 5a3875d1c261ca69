#flux: -N1 # c """
#flux: x y
#flux: """
