# flux: -N4
# flux: -c2
echo hello, world
# flux: --queue=batch
