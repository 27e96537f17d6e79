// Tailwind CSS 4 runs as a PostCSS plugin; it scans the sources itself (no content list).
const config = {
  plugins: {
    '@tailwindcss/postcss': {},
  },
};

export default config;
