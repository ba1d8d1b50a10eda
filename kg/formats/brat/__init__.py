"""brat standoff: its configuration language (annotation.conf), its .ann files, and writing both back.

    conf.py          read annotation.conf as brat does
    tools_conf.py    read tools.conf's normalization databases and their URL patterns
    conf_writer.py   write a configuration back in brat's language
    ann.py           read a .ann file into validated records: what brat displays, as written
    infer.py         the configuration the annotations imply, where no annotation.conf covers them
    render.py        write .ann lines and a configuration for annotations collected elsewhere (a CAS)
    corpus_writer.py write a build back out as a brat corpus (`kg export --format brat`)
"""
