# ${x@P} and PS4: prompt escapes expanded in scripts too, as bash does.

### user, directory, date and a backslash
x='\u:\w \\ \D{%Y}'; y=${x@P}
if [ "$y" = "$(id -un):$(pwd) \\ $(date +%Y)" ]; then echo same; else echo "differs: $y"; fi

### variables in the prompt string
v=val; x='[$v] \$'; echo "${x@P}"

### PS4 decoded in xtrace
PS4='+\u '; exec 2>&1; set -x; true; set +x
