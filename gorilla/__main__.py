from gorilla.cli import main

raise SystemExit(main())
