#flux: --job-name="a b" -S user.x="c\"d"
