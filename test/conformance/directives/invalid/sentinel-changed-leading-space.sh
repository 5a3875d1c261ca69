#!/bin/sh
#flux: -n1
 #flux: -N1
