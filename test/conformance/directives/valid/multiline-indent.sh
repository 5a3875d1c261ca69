#flux:   -S user.x="""
#flux:   a
#flux:     b
#flux:  c
#flux:   d"""
