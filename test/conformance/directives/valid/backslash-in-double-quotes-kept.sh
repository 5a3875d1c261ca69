#flux: -S user.x="a\jb" -S user.y="a\\b"
