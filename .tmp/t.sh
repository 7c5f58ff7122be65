source .tmp/c.bash
t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _pushctl; echo "[$*] -> ${COMPREPLY[*]}"; }
t pushctl ""
t pushctl d
t pushctl send --ti
t pushctl send --title ""
t pushctl send -f src/cl
t pushctl completion ""
t pushctl completion --h
t pushctl help s
t pushctl --
