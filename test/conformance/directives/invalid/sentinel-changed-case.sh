#!/bin/sh
#FLUX: -n1
#flux: -N1
