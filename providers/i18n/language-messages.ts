/** English texts of the language choice (profile and user menu). */
export const languageMessages = {
  app: {
    language: {
      title: 'Language',
      label: 'Console language',
      help: 'The language of the console, and of the mails and reports sent to you. Kept with your account, so it follows you to any browser.',
      menu: 'Language: %{language}',
      saved: 'Language saved',
      save_error: 'The language could not be kept on the server: %{message}',
    },
  },
};
