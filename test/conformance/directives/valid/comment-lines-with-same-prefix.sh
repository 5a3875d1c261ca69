#!/bin/sh
# flux: -n1
# a comment
#
# flux: -N1
