/**
 * What users ask of Microsoft Graph, in their own words (not the operations' descriptions), each with
 * the operations (tool names, from the `operationId`s of APIs.guru's `microsoft.com/graph.json`,
 * v1.0) that do it: the tool search's evaluation (tests/tool-search/graph-evaluation.test.ts,
 * bench/tool-search.ts). A task is found when one of its operations is in the search's top 5.
 */

/**
 * One task: what the user says, and the operations that do it: tool names, or a pattern for the same
 * operation reached by several paths (`/me/messages/{id}/reply` and
 * `/me/mailFolders/{id}/messages/{id}/reply` are one action).
 */
export interface SearchTask {
  readonly task: string;
  readonly expected: readonly (string | RegExp)[];
}

/** Whether a tool name is one of a task's operations. */
export function doesTask(task: SearchTask, name: string): boolean {
  return task.expected.some((e) => typeof e === "string" ? e === name : e.test(name));
}

export const GRAPH_SEARCH_TASKS: readonly SearchTask[] = [
  { task: "send an email to my manager", expected: ["me.sendMail"] },
  {
    task: "list the files in my OneDrive root",
    expected: ["drives.items.ListChildren", "drives.GetRoot", "drives.ListItems"],
  },
  {
    task: "create a Teams channel",
    expected: ["teams.CreateChannels", "groups.team.CreateChannels", "me.joinedTeams.CreateChannels"],
  },
  { task: "who is my manager?", expected: ["me.GetManager"] },
  { task: "what's on my calendar this week", expected: [/^me\.(calendar\.)?(ListEvents|ListCalendarView)$/] },
  { task: "add an event to my calendar", expected: [/^me\.(calendars?\.|calendarGroups\.calendars\.)?CreateEvents$/] },
  {
    task: "find a time when everyone is free to meet",
    expected: ["me.findMeetingTimes", "users.user.findMeetingTimes", "me.calendar.getSchedule"],
  },
  { task: "reply to an email I received", expected: [/^me\..*messages\.message\.(create)?[rR]eply$/] },
  {
    task: "forward an email to a colleague",
    expected: [/^(me|users\.user)\..*messages\.message\.(create)?[fF]orward$/],
  },
  { task: "show the messages in my inbox", expected: [/^me\.(mailFolders\.)?ListMessages$/] },
  { task: "add someone to my contacts", expected: ["me.CreateContacts"] },
  { task: "change my password", expected: ["me.changePassword"] },
  { task: "show my profile photo", expected: ["me.GetPhoto", "me.GetPhotoContent", "me.ListPhotos", "me.GetPhotos"] },
  {
    task: "is my colleague available right now",
    expected: ["users.GetPresence", "communications.GetPresences", "communications.ListPresences"],
  },
  { task: "list everyone in the organization", expected: ["users.user.ListUser"] },
  { task: "create an account for a new employee", expected: ["users.user.CreateUser"] },
  { task: "list all the groups in the company", expected: ["groups.group.ListGroup"] },
  { task: "create a new Microsoft 365 group", expected: ["groups.group.CreateGroup"] },
  { task: "which teams have I joined", expected: ["me.ListJoinedTeams", "me.GetJoinedTeams"] },
  {
    task: "post a message in a team channel",
    expected: [/^(teams|groups\.team|me\.joinedTeams)\.(channels|primaryChannel)\.CreateMessages$/],
  },
  { task: "send a chat message to someone", expected: ["chats.CreateMessages", "me.chats.CreateMessages"] },
  { task: "show my chats", expected: ["me.ListChats"] },
  { task: "add an item to my to-do list", expected: ["me.todo.lists.CreateTasks"] },
  { task: "show my to-do lists", expected: ["me.todo.ListLists"] },
  { task: "list my OneNote notebooks", expected: ["me.onenote.ListNotebooks", "me.onenote.GetNotebooks"] },
  { task: "who reports to me", expected: ["me.ListDirectReports"] },
  { task: "which groups am I in", expected: ["me.ListMemberOf", "me.ListTransitiveMemberOf"] },
  { task: "what planner tasks are assigned to me", expected: ["me.planner.ListTasks"] },
  { task: "list the app registrations in our tenant", expected: ["applications.application.ListApplication"] },
  { task: "invite a guest user from another company", expected: ["invitations.invitation.CreateInvitation"] },
  { task: "search for SharePoint sites", expected: ["sites.site.ListSite"] },
  { task: "get notified when a user's mail changes", expected: ["subscriptions.subscription.CreateSubscription"] },
  { task: "what documents are trending around me", expected: ["me.insights.ListTrending"] },
  { task: "list my mail folders", expected: ["me.ListMailFolders"] },
  { task: "cancel a meeting in my calendar", expected: [/^me\..*event\.cancel$/, "me.DeleteEvents"] },
  {
    task: "list the devices registered in the directory",
    expected: ["devices.device.ListDevice", "me.ListRegisteredDevices"],
  },
  { task: "give a user a license", expected: ["users.user.assignLicense"] },
  { task: "who do I work with most", expected: ["me.ListPeople"] },
  { task: "create a new team", expected: ["teams.team.CreateTeam"] },
  { task: "set up an online Teams meeting", expected: ["me.CreateOnlineMeetings"] },
];

/**
 * Tasks written after the ranking was tuned on GRAPH_SEARCH_TASKS, and not tuned on: how the search
 * does on what it has not seen (bench/tool-search.ts prints both figures).
 */
export const GRAPH_HELD_OUT_TASKS: readonly SearchTask[] = [
  { task: "delete an email", expected: [/^me\.(mailFolders\.)?DeleteMessages$/] },
  { task: "list the members of a group", expected: ["groups.ListMembers"] },
  { task: "add a user to a group", expected: ["groups.CreateRefMembers"] },
  { task: "rename a file in OneDrive", expected: ["drives.UpdateItems"] },
  { task: "share a file with a colleague", expected: [/driveItem\.(invite|createLink)$/] },
  { task: "list the channels of a team", expected: ["teams.ListChannels"] },
  { task: "accept a meeting invitation", expected: [/^me\..*event\.accept$/] },
  { task: "create a new OneNote page", expected: [/^me\.onenote\.(sections\.)?CreatePages$/] },
  {
    task: "reset a user's password",
    expected: [/authenticationMethod\.resetPassword$|henticationMethod\.resetPassword$/],
  },
  { task: "get details about my organization", expected: [/^organization\.organization\.(List|Get)Organization$/] },
  { task: "who is in this chat", expected: ["chats.ListMembers"] },
  { task: "delete a user account", expected: ["users.user.DeleteUser"] },
  { task: "update my mobile phone number", expected: ["me.user.UpdateUser"] },
  { task: "show the sign-in logs", expected: ["auditLogs.ListSignIns"] },
  { task: "create a folder in OneDrive", expected: ["drives.items.CreateChildren"] },
  { task: "list the people in my address book", expected: ["me.ListContacts"] },
  { task: "remove someone from a team", expected: ["teams.DeleteMembers"] },
  { task: "see the replies to a channel message", expected: ["teams.channels.messages.ListReplies"] },
];
