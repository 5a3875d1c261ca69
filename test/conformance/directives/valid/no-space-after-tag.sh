#flux:-n1
#flux:--job-name=x
