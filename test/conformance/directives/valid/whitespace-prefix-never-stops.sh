    flux: -n1
echo hi
    flux: -N1
