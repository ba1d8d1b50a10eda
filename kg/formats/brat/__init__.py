"""brat standoff: its configuration language (annotation.conf), its .ann files, and writing both back.

    conf.py          read annotation.conf (and tools.conf's normalization databases) as brat does
    conf_writer.py   write a configuration back in brat's language
    ann.py           read a .ann file into validated records
    render.py        write .ann lines and a configuration for annotations collected elsewhere (a CAS)
    export.py        write a build back out as a brat corpus (`kg export --format brat`)
"""
