#flux:
#flux:    
#flux: # only a comment
