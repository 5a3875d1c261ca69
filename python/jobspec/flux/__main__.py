"""python3 -m jobspec.flux: where the Flux plugins of this jobspec package are."""
import argparse

from . import CLI_PLUGIN_DIR, VALIDATOR_PATH

parser = argparse.ArgumentParser(
    prog="python3 -m jobspec.flux",
    description="Print where jobspec's Flux plugins are: the job-ingest validator "
    "plugin's file and the CLI plugin's directory (see docs/FLUX.md).",
)
which = parser.add_mutually_exclusive_group()
which.add_argument("--validator", action="store_true",
                   help="print only the validator plugin's path")
which.add_argument("--cli-plugin-dir", action="store_true",
                   help="print only the directory for FLUX_CLI_PLUGINPATH")
args = parser.parse_args()
if args.validator:
    print(VALIDATOR_PATH)
elif args.cli_plugin_dir:
    print(CLI_PLUGIN_DIR)
else:
    print(f"validator plugin: {VALIDATOR_PATH}")
    print(f"CLI plugin directory: {CLI_PLUGIN_DIR}")
