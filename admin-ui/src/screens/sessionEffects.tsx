// What ends, and what keeps working, when a user's sessions end (auth.md §7.3, §12; oauth.md §5, §6; mcp.md §3.4).
// Each sentence follows from the server's rules: these events raise the user's token version, which every session,
// access token, MCP password session and OAuth grant is bound to; API keys are not.

/** Own password change, an administrator's reset, and "log out everywhere": every way of being signed in ends. */
export function SessionsEnd({ who }: { readonly who: 'you' | string }) {
  const you = who === 'you';
  return (
    <ul className="effects">
      <li>
        Every sign-in session of {you ? 'yours' : who} ends at once, {you ? 'this one included' : 'in every browser'}: refresh and access tokens stop
        working and {you ? 'you sign' : 'they sign'} in again{you ? '' : ' with the new password'}.
      </li>
      <li>MCP sessions signed in with {you ? 'your' : 'their'} password end.</li>
      <li>Connected apps (OAuth) lose access and need {you ? 'your' : 'their'} approval again.</li>
      <li>API keys keep working.</li>
    </ul>
  );
}

/** Deactivation (auth.md §12): what ends at once, what is kept, and what reactivation brings back. */
export function DeactivationEffects({ username }: { readonly username: string }) {
  return (
    <>
      <p>From the next request:</p>
      <ul className="effects">
        <li>{username} cannot sign in; every sign-in session of theirs ends (refresh and access tokens are refused).</li>
        <li>Their MCP sessions end.</li>
        <li>Their personal API keys stop working (they are not revoked, and work again after reactivation).</li>
        <li>Connected apps (OAuth) acting as {username} lose access and need their approval again after reactivation.</li>
      </ul>
      <p>
        Kept: their memberships and roles, and the service keys they created (those act for their organization and keep working). Users are never
        deleted.
      </p>
    </>
  );
}
