#!/bin/sh
#flux: --nodse=2
#flux: -t 10m
hostname
