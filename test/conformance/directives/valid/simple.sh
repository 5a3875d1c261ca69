#!/bin/sh
#FLUX: -N4   # four nodes
#FLUX: --queue=batch
flux run app
