#flux: -S user.a=x;y -S "user.b=(1)"
