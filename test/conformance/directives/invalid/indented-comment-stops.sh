#!/bin/sh
# flux: -n1
   # x
# flux: -N1
