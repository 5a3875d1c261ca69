#flux: --job-name="foo
