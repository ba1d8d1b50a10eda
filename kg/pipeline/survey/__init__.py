"""What a build has to do before it does anything: whether the corpus changed since the current
build, and which documents.

    unchanged   the corpus stamp the data directory keeps, and the answer of a build with nothing to do
    watched     a corpus watcher's answer (`kg serve --watch`): the stamp and the paths changed, no stat
    changes     the documents behind the paths a watcher named, without scanning
    work        the survey a build starts from: by those named changes, or by scanning the corpus
"""
