#!/bin/sh
_#flux: -n1
x#flux: -n1
