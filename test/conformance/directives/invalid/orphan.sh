#!/bin/sh
#flux: -n1
hostname
#flux: -N1
