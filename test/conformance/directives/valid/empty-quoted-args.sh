#flux: -S user.x='' ""
