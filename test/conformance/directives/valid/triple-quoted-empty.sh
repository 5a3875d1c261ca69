#flux: -S user.x=""""""
