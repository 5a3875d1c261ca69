# flux: --setattr=user.conf="""
# flux: [config]
# flux:   item = "foo"
# flux: """
