from .cli import main

if __name__ == "__main__":  # worker processes import this module too: do not run the CLI there
    raise SystemExit(main())
