#flux:   -S user.x="  a  "   
#flux: 	--job-name=j	
