#!/bin/sh
#flux: -n1
# c
hostname
#flux: -N1
