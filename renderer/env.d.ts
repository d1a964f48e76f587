// Side-effect style imports (main.ts → styles.css) are handled by Vite.
declare module '*.css' {}
