#flux: -S user.x=a;b -S user.y=a&&b -S user.z=(c)|d
