#!/bin/sh
#Flux: -n1
