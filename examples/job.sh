#!/bin/sh
#flux: -N2 -n8
#flux: --time-limit=30m
#flux: --job-name=nightly
#flux: --setattr=system.project=climate
flux run -n8 ./simulate
