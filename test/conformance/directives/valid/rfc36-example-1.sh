#!/bin/sh
# flux: -N4
# flux: --job-name=foo
flux run hostname
