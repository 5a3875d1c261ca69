"""Drop-in replacements for the Python APIs of other projects (jobspec.compat.flux)."""
