#!/bin/sh
hostname
#flux: -n2
